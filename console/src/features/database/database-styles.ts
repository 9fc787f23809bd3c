// Mantine's CSS for the components only the database pages use; it loads with their chunk.
import '../servers/servers-styles';
import '@mantine/core/styles/Tabs.css';
import '@mantine/core/styles/Code.css';
