// Just enough Markdown for the report narrative (headings, paragraphs, bullet lists,
// **bold**, *emphasis*, `code`), escaped first so no narrative text can inject HTML.
import { escapeHtml } from '../render/format-table.js';

function inline(s: string): string {
  return escapeHtml(s)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/\*([^*]+)\*/g, '<em>$1</em>');
}

export function markdownToHtml(md: string): string {
  const out: string[] = [];
  let para: string[] = [];
  let list: string[] = [];
  const flush = (): void => {
    if (para.length) out.push(`<p>${inline(para.join(' '))}</p>`);
    if (list.length) out.push(`<ul>${list.map((l) => `<li>${inline(l)}</li>`).join('')}</ul>`);
    para = [];
    list = [];
  };
  for (const line of md.split('\n')) {
    const h = /^(#{1,4})\s+(.*)$/.exec(line);
    const li = /^\s*[-*]\s+(.*)$/.exec(line);
    if (h) {
      flush();
      const level = (h[1] as string).length;
      out.push(`<h${level}>${inline(h[2] as string)}</h${level}>`);
    } else if (li) {
      if (para.length) flush();
      list.push(li[1] as string);
    } else if (line.trim() === '') {
      flush();
    } else if (list.length && /^\s+/.test(line)) {
      list[list.length - 1] += ` ${line.trim()}`;
    } else {
      if (list.length) flush();
      para.push(line.trim());
    }
  }
  flush();
  return out.join('\n');
}
