// The landing's first screen drawn on the server (spec §2: / and /home): the same routes,
// layout, navigation, hero and about section as in the browser, with the first screen's reads
// from the query cache, and further down the placeholders the browser also starts with. The
// browser adopts that markup, so the visitor sees the hero before the page's code has arrived. Built apart (`vite build --ssr`, to dist/ssr) and loaded by the server at start;
// the server never imports web code.
import { renderToString } from "react-dom/server";
import { StaticRouter } from "react-router";
import { isLandingPath } from "@/shared/first-screen";
import { AppShell } from "@/web/app/app-shell";
import { createQueryClient } from "@/web/app/query-client";
import { AppRoutes, preloadRoute } from "@/web/app/router";
import { type BootData, seedFirstScreen } from "@/web/lib/first-screen";

function Nothing() {
  return null;
}

/**
 * The markup of #root for this page, or null when it is not drawn on the server (any page but
 * the landing, or a page whose code fails to load: the browser then draws it as usual).
 */
export async function renderFirstScreen(pageUrl: string, boot: BootData): Promise<string | null> {
  const url = new URL(pageUrl, "http://page.invalid");
  if (!isLandingPath(url.pathname)) return null;
  try {
    await preloadRoute(url.pathname);
  } catch {
    return null;
  }
  const queryClient = createQueryClient();
  seedFirstScreen(queryClient, boot);
  // `after` stands where the browser's TakenOver goes (main.tsx): the same places, the same ids.
  const html = renderToString(
    <AppShell
      queryClient={queryClient}
      router={
        <StaticRouter location={url.pathname + url.search}>
          <AppRoutes />
        </StaticRouter>
      }
      after={<Nothing />}
    />,
  );
  queryClient.clear();
  // React puts preload hints for the images first; #root must hold only what the browser will
  // adopt, and the images are in the markup for the browser to find anyway.
  return html.replace(/^(?:<link rel="preload"[^>]*\/>)+/, "");
}
