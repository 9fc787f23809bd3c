// Mantine's CSS for the components the chat integration cards use beyond the shell's.
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Switch.css';
import '@mantine/core/styles/SegmentedControl.css';
import '@mantine/core/styles/Code.css';
