export function ensureBuild(options?: { quiet?: boolean }): boolean;
