import { describe, expect, it } from 'vitest';
import { createDefaultStore, createIdbStore, createMemoryStore, type KeyValueStore } from './storage.ts';

let dbCount = 0;
const stores: [string, () => KeyValueStore][] = [
  ['IndexedDB (fake-indexeddb)', () => createIdbStore(`storage-test-${++dbCount}`)],
  ['memory', () => createMemoryStore()],
];

describe.each(stores)('%s key-value store', (_name, make) => {
  it('sets, gets, lists by prefix and deletes; values are copies', async () => {
    const kv = make();
    const value = { a: [1, 2], b: 'x' };
    await kv.set('result:1', value);
    await kv.set('result:2', 'two');
    await kv.set('meta:1', 7);
    value.a.push(3);
    expect(await kv.get('result:1')).toEqual({ a: [1, 2], b: 'x' });
    expect((await kv.keys('result:')).sort()).toEqual(['result:1', 'result:2']);
    expect((await kv.keys()).length).toBe(3);
    expect(await kv.getMany(['result:2', 'nope', 'meta:1'])).toEqual(['two', undefined, 7]);
    await kv.delete(['result:1', 'meta:1']);
    await kv.delete(['result:2']);
    expect(await kv.keys()).toEqual([]);
    expect(await kv.get('result:2')).toBeUndefined();
  });
});

describe('the default store', () => {
  it('is IndexedDB when the environment has it: a second handle sees the first one’s writes', async () => {
    await createDefaultStore('default-test').set('k', 'v');
    expect(await createIdbStore('default-test').get('k')).toBe('v');
  });
});
