// The OAuth redirect URI of tabcode's MCP client (see src/mcp/oauth/browser.ts). It hands the
// authorization server's answer (code and state, or an error) to the tabcode page: over a
// BroadcastChannel for a popup sign-in, and in localStorage under its state for a full-page one, then
// closes the popup or goes back to the page. It shows text only (never HTML from the query).
(() => {
  const params = new URLSearchParams(location.search);
  const result = { type: 'tabcode:mcp-oauth', at: Date.now() };
  for (const key of ['code', 'state', 'error']) {
    const value = params.get(key);
    if (value !== null) result[key] = value;
  }
  const description = params.get('error_description');
  if (description !== null) result.errorDescription = description;
  const status = document.getElementById('status');
  const say = (text) => {
    if (status) status.textContent = text;
  };
  // The query holds the code: keep it out of the history and of any later Referer.
  try {
    history.replaceState(null, '', location.pathname);
  } catch {}
  try {
    if (result.state) localStorage.setItem(`tabcode-mcp-oauth:${result.state}`, JSON.stringify(result));
  } catch {}
  try {
    const channel = new BroadcastChannel('tabcode-mcp-oauth');
    channel.postMessage(result);
    channel.close();
  } catch {}
  let back = null;
  try {
    const raw = localStorage.getItem('tabcode-mcp-oauth-return');
    localStorage.removeItem('tabcode-mcp-oauth-return');
    const saved = raw ? JSON.parse(raw) : null;
    // Only a recent full-page sign-in of this origin comes back here.
    if (saved && Date.now() - saved.at < 15 * 60_000 && new URL(saved.url).origin === location.origin) {
      back = saved.url;
    }
  } catch {}
  if (back) {
    say('Signed in. Going back to tabcode…');
    location.replace(back);
    return;
  }
  if (result.error) {
    const why = result.errorDescription ? ` (${result.errorDescription})` : '';
    say(`The sign-in was refused: ${result.error}${why}. You can close this window.`);
  } else {
    say('Signed in. You can close this window.');
  }
  setTimeout(() => window.close(), 150);
})();
