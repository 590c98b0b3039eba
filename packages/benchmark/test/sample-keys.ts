// Fake keys in each published format, never real ones; assembled from parts so that secret
// scanners do not take this file for a leak.
export const SAMPLE_KEYS = {
  openai: ['sk', 'proj', 'Zq3vN8xW2bR7tY5uK1mP0aLs9dF4gH6j'].join('-'),
  anthropic: ['sk', 'ant', 'api03', 'x7Kp2QmZ9vR4tW8yB1nC5dE0fG3hJ6kL', 'AA'].join('-'),
  google: ['AIza', 'SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q'].join(''),
  github: ['ghp', '1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R'].join('_'),
  slack: ['xoxb', '123456789012', 'abcdefABCDEF'].join('-'),
  aws: ['AKIA', 'IOSFODNN7EXAMPLE'].join(''),
} as const;
