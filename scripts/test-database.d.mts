export declare const LOCAL_POSTGRES_URL: string;
export declare function answers(port: number, host?: string, timeoutMs?: number): Promise<boolean>;
export declare function testDatabase(
  env?: Record<string, string | undefined>,
  probe?: () => Promise<boolean>,
): Promise<{ url: string | null; note: string }>;
