// Mantine's CSS for the components only the critical-files page uses; it loads with its chunk.
import '@mantine/core/styles/Table.css';
import '@mantine/core/styles/Progress.css';
import '@mantine/core/styles/Tooltip.css';
import '@mantine/core/styles/Code.css';
