export { parsePage, type ParsedPageDetails } from './parse-page.js';
export { parseText } from './parse-text.js';
export { markdownToText } from './markdown-text.js';
