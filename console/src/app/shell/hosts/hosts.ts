import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import { createStore } from '../../../lib/store';

/**
 * The global sidebar and dialog hosts (spec 2): any page opens a registered component by name with
 * props; the host loads its chunk and shows it 30% wide, or full-screen on xs and sm screens.
 */
type Panel = {
  /** i18n key of the panel's title. */
  titleKey: string;
  component: LazyExoticComponent<ComponentType<Record<string, unknown>>>;
};

export const PANELS = {
  'open-alerts': {
    titleKey: 'shell.alerts.title',
    component: lazy(() => import('./OpenAlertsPanel').then((m) => ({ default: m.OpenAlertsPanel }))),
  },
} satisfies Record<string, Panel>;

export type PanelName = keyof typeof PANELS;

export interface OpenPanel {
  name: PanelName;
  props: Record<string, unknown>;
}

export const sidebarStore = createStore<OpenPanel | null>(null);
export const dialogStore = createStore<OpenPanel | null>(null);

export function openSidebar(name: PanelName, props: Record<string, unknown> = {}): void {
  sidebarStore.set({ name, props });
}

export function closeSidebar(): void {
  sidebarStore.set(null);
}

export function openDialog(name: PanelName, props: Record<string, unknown> = {}): void {
  dialogStore.set({ name, props });
}

export function closeDialog(): void {
  dialogStore.set(null);
}
