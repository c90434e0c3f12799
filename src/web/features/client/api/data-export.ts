// GET /api/client/data-export → the client's own data as a JSON file (POPIA s23). A plain link
// downloads it with the session cookie: nothing to fetch or cache here.
export const DATA_EXPORT_URL = "/api/client/data-export";
