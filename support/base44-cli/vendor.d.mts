export declare const VENDOR_CLI: Readonly<{ name: string; version: string; integrity: string }>;
export declare const REPO_ROOT: string;
export declare function vendorCliDir(root?: string): string;
export declare function vendorCliBin(root?: string): string;
export declare function ensureVendorCli(options?: { root?: string; log?: (line: string) => void }): Promise<string>;
