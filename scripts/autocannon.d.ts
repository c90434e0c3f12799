// The part of autocannon's programmatic API the benches use (it ships no types of its own).
declare module "autocannon" {
  interface Request {
    /** called with each answer */
    onResponse?: (status: number, body: string) => void;
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    /** called before each request is sent: what it returns is sent */
    setupRequest?: (request: Request) => Request;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    requests?: Request[];
  }
  interface Result {
    "2xx": number;
    non2xx: number;
    errors: number;
    timeouts: number;
    /** seconds */
    duration: number;
    requests: { average: number; total: number };
  }
  export default function autocannon(options: Options): Promise<Result>;
}
