// The part of s3rver 3.7 (a Koa application) the tests use; the package ships no types.
declare module "s3rver" {
  type Middleware = (ctx: never, next: () => Promise<void>) => unknown;
  export default class S3rver {
    constructor(options: {
      port?: number;
      address?: string;
      silent?: boolean;
      directory: string;
      configureBuckets?: { name: string; configs: (string | Buffer)[] }[];
    });
    /** Koa's middleware list: s3rver's router is the last one. */
    middleware: Middleware[];
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
