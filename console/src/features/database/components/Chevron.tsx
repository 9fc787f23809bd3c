import classes from '../Database.module.css';

/** A right-pointing chevron that turns down when its row is open. */
export function Chevron({ open }: { open: boolean }) {
  return (
    <svg
      width={16}
      height={16}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      className={open ? `${classes.chevron} ${classes.chevronOpen}` : classes.chevron}
    >
      <path d="M9 6l6 6-6 6" />
    </svg>
  );
}
