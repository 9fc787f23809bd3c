// Mantine's CSS for the components only the agentless pages use; it loads with their chunk.
import '../deploy-styles';
import '@mantine/core/styles/Checkbox.css';
import '@mantine/core/styles/InlineInput.css';
