// Mantine's CSS for the components only the signed-in shell uses; it loads with the shell's chunk,
// so the sign-in page does not carry it.
import '@mantine/core/styles/AppShell.css';
import '@mantine/core/styles/Burger.css';
import '@mantine/core/styles/ScrollArea.css';
import '@mantine/core/styles/NavLink.css';
import '@mantine/core/styles/Breadcrumbs.css';
import '@mantine/core/styles/Popover.css';
import '@mantine/core/styles/Menu.css';
import '@mantine/core/styles/SimpleGrid.css';
import '@mantine/core/styles/Overlay.css';
import '@mantine/core/styles/ModalBase.css';
import '@mantine/core/styles/Modal.css';
import '@mantine/core/styles/Drawer.css';
import '@mantine/core/styles/ThemeIcon.css';
import '@mantine/core/styles/Notification.css';
import '@mantine/notifications/styles.css';
