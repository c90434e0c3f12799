// GET /api/admin/demo-content → {data}: what still reads as the demo shop seeded it (reviews by id,
// homepage lines as 'section.key'): marked demo here and left off the public site.
// POST /api/admin/demo-content/confirm {item} keeps one as the owner's own ('testimonial:<id>',
// 'homepage:hero.rating_text'): the site shows it from then on.
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiGet, apiSend } from "@/web/lib/api";

export interface DemoContentLeft {
  testimonials: string[];
  homepage: string[];
  branding: string[];
  settings: string[];
}

export const demoContentQuery = queryOptions({
  queryKey: ["admin", "demo-content"],
  queryFn: ({ signal }) => apiGet<{ data: DemoContentLeft }>("/admin/demo-content", { signal }),
  select: (answer) => answer.data,
});

export function useDemoContent() {
  return useQuery(demoContentQuery);
}

export function useConfirmDemo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (item: string) => apiSend<{ data: DemoContentLeft }>("POST", "/admin/demo-content/confirm", { item }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: demoContentQuery.queryKey }),
  });
}
