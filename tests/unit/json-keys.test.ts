import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { repeatedKey } from "@/lib/http/json-keys";

// A JSON body naming a key twice is refused (lib/http/api.ts's readJson): JSON.parse would keep
// the last value, and whatever reads the body before the console may keep the first.

describe("repeatedKey", () => {
  it("finds a key sent twice, where it is, however it is spelt", () => {
    expect(repeatedKey('{"ids":[1,2],"ids":[3,4]}')).toEqual(["ids"]);
    expect(repeatedKey('{"ids":[1,2],"change":{"is_mandatory":true,"is_mandatory":false}}')).toEqual(["change", "is_mandatory"]);
    expect(repeatedKey('{"filters":{"email":"a"},"change":{},"filters":{}}')).toEqual(["filters"]);
    expect(repeatedKey('[{"a":1},{"b":1,"b":2}]')).toEqual([1, "b"]);
    expect(repeatedKey('{"values":{"first_name":1},"x":[[{"k":1, "k" :2}]]}')).toEqual(["x", 0, 0, "k"]);
    // Escapes name the same key: JSON.parse reads both as "a".
    expect(repeatedKey('{"a":1,"\\u0061":2}')).toEqual(["a"]);
    expect(repeatedKey('{"__proto__":{},"__proto__":{"admin":true}}')).toEqual(["__proto__"]);
    expect(repeatedKey('{ "a" : 1 ,\n\t"a" : 2 }')).toEqual(["a"]);
  });

  it("leaves the same name in different objects, and names inside strings, alone", () => {
    for (const text of [
      '{"a":{"a":1},"b":{"a":2}}',
      '[{"a":1},{"a":2}]',
      '{"a":"}{\\"a\\":1,\\"a\\":2","b":"\\\\","c":"\\""}',
      '{"a\\"":1,"a":2}',
      '{"a":[],"b":{},"c":[{}],"d":"x"}',
      '"a"',
      "[]",
      "{}",
      "5",
      "null",
    ]) {
      expect(() => JSON.parse(text), text).not.toThrow();
      expect(repeatedKey(text), text).toBeNull();
    }
  });

  it("finds nothing in what JSON.stringify writes, which never repeats a key", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), fc.constantFrom(undefined, 2, "\t"), (value, space) => {
        expect(repeatedKey(JSON.stringify(value, null, space))).toBeNull();
      }),
      { seed: 7, numRuns: 500 },
    );
  });

  it("finds the key a text repeats at any depth", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), fc.string({ maxLength: 8 }), fc.nat(3), (value, key, depth) => {
        let inner = `{${JSON.stringify(key)}:${JSON.stringify(value)},${JSON.stringify(key)}:null}`;
        const path: string[] = [];
        for (let i = 0; i < depth; i++) {
          inner = `{"level${i}":${inner}}`;
          path.unshift(`level${i}`);
        }
        expect(repeatedKey(inner)).toEqual([...path, key]);
      }),
      { seed: 7, numRuns: 300 },
    );
  });
});
