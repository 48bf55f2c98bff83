/** Stroke icons (24×24, currentColor) for the navigation; drawn here to avoid an icon library. */
const PATHS: Record<string, string> = {
  knowledge: 'M4 6.5C4 5.1 7.6 4 12 4s8 1.1 8 2.5S16.4 9 12 9 4 7.9 4 6.5zM4 6.5v11C4 18.9 7.6 20 12 20s8-1.1 8-2.5v-11M4 12c0 1.4 3.6 2.5 8 2.5s8-1.1 8-2.5',
  content: 'M6 3h9l4 4v14H6zM14 3v5h5M9 12h7M9 16h7',
  webhooks: 'M7 17a4 4 0 1 1 3.5-6M12 7a4 4 0 1 1 4 6.9M17 17H10.5M9.5 9.5 12 14M14.5 9.5 16.5 13',
  users: 'M9 11a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7zM2.5 20c.6-3.4 3.2-5.5 6.5-5.5s5.9 2.1 6.5 5.5M16 4.3a3.5 3.5 0 0 1 0 6.4M18 14.8c1.9.8 3.1 2.6 3.5 5.2',
  keys: 'M14.5 9.5a4.5 4.5 0 1 0-3.9 4.5L12 15.5h2v2h2v2h3v-3l-4.7-4.7a4.5 4.5 0 0 0 .2-2.3zM8 8.5h.01',
};

export function Icon({ name }: { name: keyof typeof PATHS | string }) {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d={PATHS[name] ?? ''} />
    </svg>
  );
}
