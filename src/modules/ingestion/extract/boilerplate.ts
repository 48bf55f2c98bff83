/**
 * Which elements are page chrome rather than content: navigation, headers/footers, sidebars,
 * share/newsletter/cookie widgets, "edit this page" links, captions and credits. General rules over
 * tag, ARIA role and class/id words — no per-site rules.
 */
import type { DomNode } from './markdown.js';

const CHROME_TAGS = new Set(['nav', 'aside', 'footer', 'form', 'dialog', 'figcaption']);

const CHROME_ROLES = new Set([
  'navigation', 'banner', 'contentinfo', 'complementary', 'search', 'menu', 'menubar', 'toolbar', 'dialog',
  'alertdialog', 'tablist', 'button',
]);

/** Class/id words that mark chrome, matched as whole words between `-`, `_` and spaces. */
const CHROME_WORDS =
  /(?:^|[\s_-])(?:nav|navbar|navigation|menu|breadcrumbs?|footer|sidebar|sidenav|share|sharing|sharethis|social|related|recommended|recommendations|newsletter|subscribe|subscription|signup|cookies?|consent|gdpr|promo|advert|advertisement|ads?|adsbygoogle|sponsored|comments?|disqus|byline|caption|credits?|toolbar|skip|skiplink|edit-page|editpage|edit-this-page|edit-on-github|edit-link|editlink|headerlink|printfriendly|rating|pagination|pager|popup|modal|outbrain|taboola|tooltip|popover|hovercard|rollover|dropdown|widget|tags|author-bio|bio|hidden|visually-hidden|sr-only|screen-reader-text)(?:$|[\s_-])/i;

/** Words that mark the element as the content itself, which wins over a chrome word. */
const CONTENT_WORDS = /(?:^|[\s_-])(?:article|body|content|main|entry|post|story|text|document|markdown|prose)(?:$|[\s_-])/i;

export function isBoilerplate(el: DomNode, tag: string): boolean {
  if (CHROME_TAGS.has(tag)) return true;
  const get = el.getAttribute;
  if (!get) return false;
  const role = get.call(el, 'role');
  if (role && CHROME_ROLES.has(role.toLowerCase())) return true;
  if (get.call(el, 'hidden') !== null || get.call(el, 'aria-hidden') === 'true') return true;
  const style = get.call(el, 'style');
  if (style && /display\s*:\s*none|visibility\s*:\s*hidden/i.test(style)) return true;
  const names = `${get.call(el, 'class') ?? ''} ${get.call(el, 'id') ?? ''}`;
  if (names.length < 3) return false;
  return CHROME_WORDS.test(names) && !CONTENT_WORDS.test(names);
}
