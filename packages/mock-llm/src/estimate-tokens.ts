// The token estimate the server bills by when a reply does not fix its usage: there is no
// tokenizer, a "token" is 4 characters (UTF-16 code units) of text, at least 1.

export const CHARS_PER_TOKEN = 4;

/** Tokens of a text of `chars` characters; a prefix of k tokens is its first 4k characters. */
export function tokensForChars(chars: number): number {
  return Math.max(1, Math.ceil(chars / CHARS_PER_TOKEN));
}

/** ~4 characters a token. */
export function estimateTokens(text: string): number {
  return tokensForChars(text.length);
}
