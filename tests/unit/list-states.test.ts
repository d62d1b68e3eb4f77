import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { InvalidQuery } from "@/components/list/list-states";
import { InEnglish } from "../helpers/english";

// The notice of a list address that cannot be read: its "Drop those values" link keeps the rest.

describe("InvalidQuery", () => {
  it("drops only the values that could not be read, whatever the other names are", () => {
    const html = renderToStaticMarkup(
      createElement(
        InEnglish,
        null,
        createElement(InvalidQuery, { fields: { page: ["page must be a whole number, 1 or more."] }, path: "/subscribers", params: { page: "abc", constructor: "x", q: "ro" } }),
      ),
    );
    expect(html).toContain('href="/subscribers?constructor=x&amp;q=ro"');
  });
});
