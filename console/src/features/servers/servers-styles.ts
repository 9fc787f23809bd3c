// Mantine's CSS for the components only the host pages use; it loads with their chunk.
import '@mantine/core/styles/Table.css';
import '@mantine/core/styles/Pagination.css';
import '@mantine/core/styles/Tooltip.css';
import '@mantine/core/styles/Progress.css';
