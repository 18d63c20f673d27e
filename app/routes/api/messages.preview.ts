// POST /api/messages/preview {"messageText": "..."} -> how the text would be sent:
// {"encoding": "GSM-7"|"UCS-2", "segments": n, "characters": n, "nonGsmCharacters": [...]}.
import { z } from "zod";
import { apiHandler, badRequest, parseJsonBody, requireApiUser } from "~/lib/api.server";
import { analyse, MAX_MESSAGE_CHARACTERS } from "~/domain/messaging/segments";

// Code units are capped first (a grapheme is at most a handful of units in real text) so a hostile
// string never reaches the grapheme segmenter at full size.
const schema = z.object({ messageText: z.string().max(MAX_MESSAGE_CHARACTERS * 4) });

const handler = apiHandler({
  POST: async ({ request, context }) => {
    await requireApiUser(request, context);
    const { messageText } = await parseJsonBody(request, schema);
    const r = analyse(messageText);
    if (r.characters > MAX_MESSAGE_CHARACTERS) throw badRequest(["messageText"]);
    return { encoding: r.encoding, segments: r.segments, characters: r.characters, nonGsmCharacters: r.nonGsmCharacters };
  },
});

export const loader = handler;
export const action = handler;
