export declare const BUILD_INPUTS: string[];
export declare const BUILD_ID_PATTERN: RegExp;
export declare function sourceDigest(root: string, inputs?: readonly string[]): string;
export declare function buildId(root: string, env?: Record<string, string | undefined>): string;
