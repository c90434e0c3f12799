// The generic admin CRUD (GET/POST /api/admin/<name>, GET/PATCH/DELETE /api/admin/<name>/:id)
// as used by notices, knowledge-base articles, releases, status components and incidents: a
// resource is its URL segment and the query key of its list.
export interface AdminResource {
  /** the segment after /api/admin/ (e.g. "notices", "kb") */
  path: string;
  /** the list's query key, ["admin", <table>] */
  key: readonly string[];
  /** for messages: "Notice" */
  label: string;
}

export const resourceUrl = (resource: AdminResource, id?: string) => `/admin/${resource.path}${id ? `/${encodeURIComponent(id)}` : ""}`;
