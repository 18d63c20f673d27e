// Types for access-log.js (plain JavaScript so that server.js can use it without a build).
type Req = { method?: string; url?: string };
type Res = { statusCode: number; writableFinished: boolean; once(event: "close", listener: () => void): unknown };

export function loggablePath(url: string | undefined): string;
export function accessLog(options: { slowMs: number; write?: (line: string) => void; clock?: () => number; date?: () => Date }): (req: Req, res: Res) => void;
