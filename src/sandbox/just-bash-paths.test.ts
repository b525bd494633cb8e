import { describe, expect, it } from 'vitest';
import { createJustBashSandbox } from './just-bash.ts';
import { MAX_PATH_DEPTH } from './sandbox.ts';

describe('just-bash sandbox: deep paths and links', () => {
  it('a link deep in a path that leads outside the workspace is refused, however deep it is', async () => {
    const sb = await createJustBashSandbox({});
    const deep = Array.from({ length: 40 }, (_, i) => `d${i}`).join('/');
    await sb.mkdir(deep, { recursive: true });
    await sb.exec(`ln -s /etc ${deep}/out`);
    await expect(sb.writeFile(`${deep}/out/passwd`, 'x')).rejects.toMatchObject({ code: 'EOUTSIDE' });
    await expect(sb.writeFile(`${deep}/out/new/dir/file`, 'x')).rejects.toMatchObject({ code: 'EOUTSIDE' });
    // A link that stays inside is followed.
    await sb.exec(`ln -s ../.. ${deep}/up`);
    await sb.writeFile(`${deep}/up/via-link.txt`, 'ok');
    expect(await sb.readFile(`${deep.split('/').slice(0, -2).join('/')}/via-link.txt`)).toBe('ok');
  });

  it('a link loop is an error, not a hang', async () => {
    const sb = await createJustBashSandbox({});
    await sb.exec('ln -s b a && ln -s a b');
    await expect(sb.writeFile('a/x', '1')).rejects.toThrow(/symbolic links|outside|ELOOP|loop/i);
  });

  it('paths deeper than the limit, or longer than PATH_MAX, are refused at once', async () => {
    const sb = await createJustBashSandbox({});
    const tooDeep = Array.from({ length: MAX_PATH_DEPTH + 1 }, () => 'd').join('/');
    await expect(sb.writeFile(`${tooDeep}/f`, 'x')).rejects.toMatchObject({ code: 'EINVAL' });
    await expect(sb.readFile('x'.repeat(5000))).rejects.toThrow(/too long/);
  });
});
