(() => {
  const me = document.currentScript;
  let todo = me?.dataset.entry;
  const add = (tag, props) => document.head.append(Object.assign(document.createElement(tag), { crossOrigin: "", ...props }));
  const start = () => {
    if (!todo) return;
    for (const href of me.dataset.preload.split(" ")) if (href) add("link", { rel: "modulepreload", href });
    add("script", { type: "module", src: todo });
    todo = null;
  };
  if (document.hidden) return start();
  setTimeout(start, 2000);
  try {
    new PerformanceObserver((list, observer) => {
      if (!list.getEntriesByName("first-contentful-paint").length) return;
      observer.disconnect();
      setTimeout(start);
    }).observe({ type: "paint", buffered: true });
  } catch {
    requestAnimationFrame(() => setTimeout(start));
  }
})();
