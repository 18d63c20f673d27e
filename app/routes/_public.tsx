// Layout for public pages (login, sign-up): a centred card, the brand, and the language choice.
import { Link, Outlet } from "react-router";
import { LocaleSwitch } from "~/components/locale-switch";

export default function PublicLayout() {
  return (
    <div className="public">
      <header>
        <Link to="/" className="public__brand">Textcircle</Link>
      </header>
      <main id="main" className="page page--narrow">
        <Outlet />
      </main>
      <footer className="public__footer">
        <LocaleSwitch />
      </footer>
    </div>
  );
}
