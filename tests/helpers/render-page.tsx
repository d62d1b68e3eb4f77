import { createElement, type ReactElement, type ReactNode } from "react";
import { renderToReadableStream } from "react-dom/server";
import { NextIntlClientProvider } from "next-intl";
import { AppRouterContext, type AppRouterInstance } from "next/dist/shared/lib/app-router-context.shared-runtime";
import { PathnameContext, SearchParamsContext } from "next/dist/shared/lib/hooks-client-context.shared-runtime";
import { catalogue } from "@/lib/i18n/catalogues";

// A page's HTML as the server renders it, in the test's own process: its server components run
// against the test database (so a test can count the statements a view costs, or read what the
// page says), its client components render once with the URL they would see. Not the production
// build (tests/http and e2e are): no layout, no RSC payload, no script.

const router: AppRouterInstance = {
  back: () => {},
  forward: () => {},
  refresh: () => {},
  push: () => {},
  replace: () => {},
  prefetch: () => {},
  bfcacheId: "test",
};

type Page<P> = (props: { searchParams: Promise<P> }) => Promise<ReactNode> | ReactNode;

/** Renders `page` for `url` (a path with its query) to HTML, waiting for every Suspense boundary. */
export async function renderPage<P extends Record<string, string | string[] | undefined>>(page: Page<P>, url: string): Promise<string> {
  const { pathname, searchParams } = new URL(url, "http://console.test");
  const params = Object.fromEntries(searchParams) as P;
  const tree: ReactElement = createElement(
    AppRouterContext.Provider,
    { value: router },
    createElement(
      PathnameContext.Provider,
      { value: pathname },
      createElement(
        SearchParamsContext.Provider,
        { value: searchParams },
        // The root layout's provider: the English catalogue (client components read their words from it).
        <NextIntlClientProvider locale="en" timeZone="UTC" messages={catalogue("en")}>
          {createElement(page as never, { searchParams: Promise.resolve(params) })}
        </NextIntlClientProvider>,
      ),
    ),
  );
  let failure: unknown;
  const stream = await renderToReadableStream(tree, { onError: (error) => void (failure ??= error) });
  await stream.allReady;
  const html = await new Response(stream).text();
  if (failure) throw failure;
  return html;
}
