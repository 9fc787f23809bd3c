import '../integrations-styles';
import { GChatCard } from './GChatCard';
import { SlackCard } from './SlackCard';
import { TelegramCard } from './TelegramCard';
import { WhatsAppCard } from './WhatsAppCard';

/** The chat channels of the profile's integrations section, in the spec's order. */
export function ChatIntegrationCards() {
  return (
    <>
      <TelegramCard />
      <SlackCard />
      <GChatCard />
      <WhatsAppCard />
    </>
  );
}
