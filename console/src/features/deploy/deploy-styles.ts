// Mantine's CSS for the components only the Deploy pages use; it loads with their chunk.
import '@mantine/core/styles/SimpleGrid.css';
import '@mantine/core/styles/Tabs.css';
import '@mantine/core/styles/List.css';
