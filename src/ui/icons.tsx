/** Small inline SVG icons (no icon font, no emoji: they render the same everywhere). */

const PATHS = {
  pencil: 'M4 20h4L19 9l-4-4L4 16v4zm11.5-13.5 2 2',
  download: 'M12 4v11m0 0-4-4m4 4 4-4M5 20h14',
  trash: 'M5 7h14M10 7V4h4v3m-7 0 1 13h8l1-13',
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
