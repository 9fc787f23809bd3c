// Mantine's CSS for the components the maintenance page uses beyond the shell's; it loads with its chunk.
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Checkbox.css';
import '@mantine/core/styles/Switch.css';
import '@mantine/core/styles/SegmentedControl.css';
import '@mantine/core/styles/Tabs.css';
import '@mantine/core/styles/Chip.css';
import '@mantine/core/styles/Pill.css';
import '@mantine/core/styles/PillsInput.css';
