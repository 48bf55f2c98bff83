/**
 * Block-level pruning for article pages (Readability's output), where what survives scoring is
 * mostly "related stories" link lists, promo lines, photo captions and date/label lines inside the
 * body. Documentation pages (the semantic path) skip this: there link lists are the content.
 */

const MD_LINK = /\[((?:\\.|[^\]\\])*)\]\([^)\s]*\)/g;

/** Share of the visible text that sits inside links. */
export function linkDensity(markdown: string): number {
  let linked = 0;
  const visible = markdown.replace(MD_LINK, (_m, text: string) => {
    linked += text.replace(/[\s*_`]/g, '').length;
    return text;
  });
  const total = visible.replace(/[\s*_`#>|-]/g, '').length;
  return total ? linked / total : 0;
}

const LABEL =
  /^(?:advert(?:isement)?|sponsored(?: content)?|image \d+ of \d+|photo \d+ of \d+|\(?(?:image|photo) (?:credit|source)s?:.*|(?:published|updated|posted|last updated|first published)\b.{0,60}|(?:related|see more|see also|read more|more|don'?t miss|also read|recommended|watch|listen|trending|popular)\b.{0,3}|this slideshow requires javascript\.?|comments?|share(?: this)?(?: article| story)?|tell us what you think.*)$/i;
const PROMO_LEAD = /^(?:related|see more|read more|more|don'?t miss|also read|recommended|watch|listen|click here|sign up|subscribe|get\b.{0,30}\bdelivered)\b/i;
const PHOTO_CREDIT = /\((?:[^()]*\b(?:photo|photograph|image|credit|getty|reuters|ap|afp|file|shutterstock|istock)\b[^()]*)\)\s*$/i;

/** True for a paragraph that is chrome left inside an article body. */
export function isJunkParagraph(markdown: string): boolean {
  const text = markdown.replace(MD_LINK, '$1').replace(/[*_`#>]/g, '').replace(/\s+/g, ' ').trim();
  if (!text) return true;
  if (text.length < 120 && LABEL.test(text)) return true;
  if (PROMO_LEAD.test(text) && text.length < 300 && linkDensity(markdown) > 0.3) return true;
  if (text.length < 400 && PHOTO_CREDIT.test(text)) return true;
  return text.length < 300 && linkDensity(markdown) > 0.8;
}

/** A list whose items are (almost) all bare links is a "related links" list. */
export function isLinkList(markdown: string): boolean {
  const items = markdown.split('\n').filter((l) => /^\s*(?:[-*+]|\d+\.)\s/.test(l));
  if (items.length === 0) return false;
  const linky = items.filter((item) => linkDensity(item) > 0.8).length;
  return linky / items.length >= 0.8;
}
