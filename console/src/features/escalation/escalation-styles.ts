// Mantine's CSS for the components the escalation page uses beyond the shell's; it loads with its chunk.
import '@mantine/core/styles/SegmentedControl.css';
import '@mantine/core/styles/NumberInput.css';
import '@mantine/core/styles/Pill.css';
import '@mantine/core/styles/PillsInput.css';
