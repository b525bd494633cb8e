/**
 * The first file tree of a new session: a small project the agent (and a new user) can explore and
 * change. Paths are relative to the workspace root.
 */
export const DEMO_PROJECT: Readonly<Record<string, string>> = {
  'README.md': `# Weather notes

A tiny command-line project used to try tabcode. It reads \`data/cities.csv\` and prints
a short report of temperatures per city.

## Layout
- \`src/index.js\` — entry point: loads the data and prints the report
- \`src/report.js\` — formats one line per city
- \`src/stats.js\` — mean, min and max helpers
- \`data/cities.csv\` — one row per reading: city, date, temperature in °C

## Ideas
- Add a median to \`src/stats.js\` and show it in the report.
- Sort the report by mean temperature.
- Convert temperatures to Fahrenheit with a flag.
`,
  'package.json': `${JSON.stringify(
    {
      name: 'weather-notes',
      version: '1.0.0',
      type: 'module',
      scripts: { start: 'node src/index.js', test: 'node --test' },
    },
    null,
    2,
  )}\n`,
  'src/index.js': `import { readFileSync } from 'node:fs';
import { formatReport } from './report.js';

const rows = readFileSync(new URL('../data/cities.csv', import.meta.url), 'utf8')
  .trim()
  .split('\\n')
  .slice(1)
  .map((line) => {
    const [city, date, celsius] = line.split(',');
    return { city, date, celsius: Number(celsius) };
  });

console.log(formatReport(rows));
`,
  'src/report.js': `import { max, mean, min } from './stats.js';

/** One line per city: name, number of readings, mean / min / max in °C. */
export function formatReport(rows) {
  const byCity = new Map();
  for (const row of rows) {
    if (!byCity.has(row.city)) byCity.set(row.city, []);
    byCity.get(row.city).push(row.celsius);
  }
  const lines = [];
  for (const [city, temps] of byCity) {
    lines.push(
      \`\${city.padEnd(10)} \${String(temps.length).padStart(2)} readings  mean \${mean(temps).toFixed(1)}  min \${min(temps)}  max \${max(temps)}\`,
    );
  }
  return lines.join('\\n');
}
`,
  'src/stats.js': `export function mean(values) {
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

export function min(values) {
  return Math.min(...values);
}

export function max(values) {
  return Math.max(...values);
}
`,
  'data/cities.csv': `city,date,celsius
Lisbon,2026-11-01,19
Lisbon,2026-11-02,18
Lisbon,2026-11-03,20
Oslo,2026-11-01,4
Oslo,2026-11-02,2
Oslo,2026-11-03,-1
Nairobi,2026-11-01,24
Nairobi,2026-11-02,26
Nairobi,2026-11-03,25
Tokyo,2026-11-01,15
Tokyo,2026-11-02,14
Tokyo,2026-11-03,16
`,
  'test/stats.test.js': `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { max, mean, min } from '../src/stats.js';

test('mean, min and max', () => {
  assert.equal(mean([1, 2, 3]), 2);
  assert.equal(min([3, 1, 2]), 1);
  assert.equal(max([3, 1, 2]), 3);
});
`,
};
