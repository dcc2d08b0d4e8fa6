// The icons are one sprite (icons.svg, fingerprinted under /build/ and cached for a year; the
// service worker keeps it for offline use). Each icon on a page is a <use> of it: about 100
// bytes instead of the whole drawing repeated inline. Cheaper on a weak
// connection than an icon library, and works without JavaScript.
import type { SVGProps } from "react";
import sprite from "./icons.svg";

function Icon({ name, ...props }: SVGProps<SVGSVGElement> & { name: string }) {
  return (
    <svg width="20" height="20" aria-hidden="true" {...props}>
      <use href={`${sprite}#${name}`} />
    </svg>
  );
}

export const HomeIcon = (p: SVGProps<SVGSVGElement>) => <Icon name="home" {...p} />;
export const TruckIcon = (p: SVGProps<SVGSVGElement>) => <Icon name="truck" {...p} />;
export const CalendarIcon = (p: SVGProps<SVGSVGElement>) => <Icon name="calendar" {...p} />;
export const FileIcon = (p: SVGProps<SVGSVGElement>) => <Icon name="file" {...p} />;
export const WalletIcon = (p: SVGProps<SVGSVGElement>) => <Icon name="wallet" {...p} />;
export const UsersIcon = (p: SVGProps<SVGSVGElement>) => <Icon name="users" {...p} />;
export const BuildingIcon = (p: SVGProps<SVGSVGElement>) => <Icon name="building" {...p} />;
export const SettingsIcon = (p: SVGProps<SVGSVGElement>) => <Icon name="settings" {...p} />;
export const MenuIcon = (p: SVGProps<SVGSVGElement>) => <Icon name="menu" {...p} />;
export const PanelIcon = (p: SVGProps<SVGSVGElement>) => <Icon name="panel" {...p} />;
export const SunIcon = (p: SVGProps<SVGSVGElement>) => <Icon name="sun" {...p} />;
export const MoonIcon = (p: SVGProps<SVGSVGElement>) => <Icon name="moon" {...p} />;
export const MoreIcon = (p: SVGProps<SVGSVGElement>) => <Icon name="more" {...p} />;
export const LogoutIcon = (p: SVGProps<SVGSVGElement>) => <Icon name="logout" {...p} />;
export const KeyIcon = (p: SVGProps<SVGSVGElement>) => <Icon name="key" {...p} />;
export const ShieldIcon = (p: SVGProps<SVGSVGElement>) => <Icon name="shield" {...p} />;
export const ChartIcon = (p: SVGProps<SVGSVGElement>) => <Icon name="chart" {...p} />;
export const XIcon = (p: SVGProps<SVGSVGElement>) => <Icon name="x" {...p} />;
export const PlusIcon = (p: SVGProps<SVGSVGElement>) => <Icon name="plus" {...p} />;
