/** Small inline SVG icons (no icon font, no emoji: they render the same everywhere). */

const PATHS = {
  pencil: 'M4 20h4L19 9l-4-4L4 16v4zm11.5-13.5 2 2',
  download: 'M12 4v11m0 0-4-4m4 4 4-4M5 20h14',
  trash: 'M5 7h14M10 7V4h4v3m-7 0 1 13h8l1-13',
  'file-plus': 'M6 3h8l4 4v14H6zM14 3v4h4M12 11v6M9 14h6',
  'folder-plus': 'M3 6h6l2 2h10v11H3zM12 11v5M9.5 13.5h5',
  upload: 'M12 16V5m0 0-4 4m4-4 4 4M5 20h14',
  'folder-up': 'M3 6h6l2 2h10v11H3zM12 17v-6m0 0-2.5 2.5M12 11l2.5 2.5',
  zip: 'M6 3h12v18H6zM12 3v2m0 2v2m0 2v2m-1.5 2h3v3h-3z',
} as const;

export function Icon({ name }: { name: keyof typeof PATHS }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="14"
      height="14"
      aria-hidden="true"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
