// JSON.parse keeps the last value of a key sent twice, while a proxy, a log or a firewall in front
// may read the first: the body is refused instead, as a multipart part sent twice is (docs/API.md, Errors).

type Frame = { keys: Set<string> | null; at: string | number };

/**
 * Where the first key sent twice in one object of `text` is (`["change", "is_mandatory"]`), or
 * null. `text` must be JSON that JSON.parse has read: only strings and brackets are looked at.
 */
export function repeatedKey(text: string): (string | number)[] | null {
  const stack: Frame[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
      const top = stack.at(-1);
      if (expectKey && top?.keys) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (top.keys.has(key)) return [...stack.slice(0, -1).map((f) => f.at), key];
        top.keys.add(key);
        top.at = key;
        expectKey = false;
      }
      i = end;
    } else if (c === "{") {
      stack.push({ keys: new Set(), at: "" });
      expectKey = true;
    } else if (c === "[") {
      stack.push({ keys: null, at: 0 });
    } else if (c === "}" || c === "]") {
      stack.pop();
      expectKey = false;
    } else if (c === ",") {
      const top = stack.at(-1);
      if (top?.keys) expectKey = true;
      else if (top) top.at = (top.at as number) + 1;
    }
  }
  return null;
}
