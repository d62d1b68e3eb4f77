import { describe, expect, it } from "vitest";
import { repeatedKey } from "@/lib/http/json-keys";

// A JSON body that names a field twice: JSON.parse keeps the last silently, the API refuses it.

describe("a key named twice in a JSON body", () => {
  it("is found in the body, in a nested object, and through escapes", () => {
    expect(repeatedKey('{"name":"a","name":"b"}')).toEqual(["name"]);
    expect(repeatedKey('{ "name" : "a" ,\n\t"shared": true, "name"\r\n:"b"}')).toEqual(["name"]);
    expect(repeatedKey('{"target":{"ids":[1],"ids":[2]}}')).toEqual(["target", "ids"]);
    expect(repeatedKey('{"name":"a","na\\u006de":"b"}')).toEqual(["name"]);
    expect(repeatedKey('{"__proto__":{},"__proto__":{"shared":true}}')).toEqual(["__proto__"]);
    expect(repeatedKey('[{"a":1},{"b":2,"b":3}]')).toEqual([1, "b"]);
  });

  it("is not confused by the same key in sibling objects, by values, or by quotes and colons inside strings", () => {
    expect(repeatedKey('{"a":{"x":1},"b":{"x":2}}')).toBeNull();
    expect(repeatedKey('{"name":"name","query":"name:1"}')).toBeNull();
    expect(repeatedKey('{"q":"say \\"q\\": twice","r":"\\\\"}')).toBeNull();
    expect(repeatedKey('["a","a",{"a":"a"}]')).toBeNull();
    expect(repeatedKey('{"columns":["id","id"]}')).toBeNull();
    expect(repeatedKey('"text"')).toBeNull();
    expect(repeatedKey("")).toBeNull();
  });
});
