export declare function describeCiRefusal(
  stderr: string,
  lock: { packages?: Record<string, { optionalDependencies?: Record<string, string>; [field: string]: unknown }> } | null,
): { expected: boolean; missing: string[]; message: string };
export declare function ensureDeps(): void;
