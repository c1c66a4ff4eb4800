/**
 * How the Comments screen tells commenters' addresses apart without showing them: a short
 * coloured mark made from the address's salted hash (never the address), and which other
 * comments on the same page came from the same address.
 */
export interface AddressMark {
  /** A hue (0–359) for the mark's colour: the same address always has the same colour. */
  hue: number;
  /** The hash's first characters, so the mark does not rest on colour alone. */
  code: string;
  /** What hovering the mark (or a screen reader) says. */
  description: string;
}

/** As many characters as the screen always showed: enough to tell a page's addresses apart, never enough to guess one. */
const CODE_LENGTH = 10;

/** The authors of the page's other comments from this address, each named once, in list order. */
function othersFrom(
  comments: readonly { id: string; author: string; ipHash: string | null }[],
  of: string,
  id: string,
) {
  return [...new Set(comments.filter((other) => other.ipHash === of && other.id !== id).map((other) => other.author))];
}

/** A mark for each listed comment with an address hash (by comment id). */
export function addressMarks(
  comments: readonly { id: string; author: string; ipHash: string | null }[],
): Map<string, AddressMark> {
  const marks = new Map<string, AddressMark>();
  for (const comment of comments) {
    if (!comment.ipHash) continue;
    const others = othersFrom(comments, comment.ipHash, comment.id);
    const sameAs = comments.filter((other) => other.ipHash === comment.ipHash).length - 1;
    marks.set(comment.id, {
      hue: Number.parseInt(comment.ipHash.slice(0, 6), 16) % 360,
      code: comment.ipHash.slice(0, CODE_LENGTH),
      description:
        sameAs === 0
          ? "No other comment on this page came from this address"
          : `Same person as ${others.join(", ")}: ${sameAs === 1 ? "another comment" : `${sameAs} other comments`} on this page came from this address`,
    });
  }
  return marks;
}
