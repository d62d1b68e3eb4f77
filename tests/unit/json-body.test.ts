import { describe, expect, it } from "vitest";
import { repeatedJsonKey } from "@/lib/http/body";

// A JSON body that names a field twice: JSON.parse keeps the last silently, the API refuses it.

describe("a key named twice in a JSON body", () => {
  it("is found in the body, in a nested object, and through escapes", () => {
    expect(repeatedJsonKey('{"name":"a","name":"b"}')).toBe("name");
    expect(repeatedJsonKey('{ "name" : "a" ,\n\t"shared": true, "name"\r\n:"b"}')).toBe("name");
    expect(repeatedJsonKey('{"target":{"ids":[1],"ids":[2]}}')).toBe("ids");
    expect(repeatedJsonKey('{"name":"a","na\\u006de":"b"}')).toBe("name");
    expect(repeatedJsonKey('{"__proto__":{},"__proto__":{"shared":true}}')).toBe("__proto__");
    expect(repeatedJsonKey('[{"a":1},{"b":2,"b":3}]')).toBe("b");
  });

  it("is not confused by the same key in sibling objects, by values, or by quotes and colons inside strings", () => {
    expect(repeatedJsonKey('{"a":{"x":1},"b":{"x":2}}')).toBeNull();
    expect(repeatedJsonKey('{"name":"name","query":"name:1"}')).toBeNull();
    expect(repeatedJsonKey('{"q":"say \\"q\\": twice","r":"\\\\"}')).toBeNull();
    expect(repeatedJsonKey('["a","a",{"a":"a"}]')).toBeNull();
    expect(repeatedJsonKey('{"columns":["id","id"]}')).toBeNull();
    expect(repeatedJsonKey('"text"')).toBeNull();
    expect(repeatedJsonKey("")).toBeNull();
  });
});
