// GET /api/testimonials: published and approved reviews, featured first, then sort_order,
// then newest (spec §7).
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ListResponse, Testimonial } from "@/shared/api";
import { QUERY_CACHE } from "@/shared/retry";
import { apiGet } from "@/web/lib/api";
import { queryKeys } from "@/web/lib/query-keys";

export async function getTestimonials(signal?: AbortSignal): Promise<Testimonial[]> {
  const body = await apiGet<ListResponse<Testimonial>>("/testimonials", { signal });
  return body.data ?? [];
}

export const testimonialsQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.testimonials,
    queryFn: ({ signal }) => getTestimonials(signal),
    ...QUERY_CACHE.testimonials,
  });

/** The reviews; an empty list while loading or when the read failed (spec §8: silently). */
export function useTestimonials(): { testimonials: Testimonial[]; isLoading: boolean } {
  const { data, isPending, isError } = useQuery(testimonialsQueryOptions());
  return { testimonials: data ?? [], isLoading: isPending && !isError };
}
