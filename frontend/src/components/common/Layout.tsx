// The app shell: top navigation, page outlet, toasts.
import { NavLink, Outlet } from "react-router";
import { clearToken, getToken, LOGIN_PATH } from "@/lib/auth";
import { Toasts } from "./Toasts";

export function Layout() {
  return (
    <div className="app">
      <header className="topbar">
        <NavLink to="/experiments" className="brand">
          mcscope
        </NavLink>
        <nav>
          <NavLink to="/experiments" end>
            Experiments
          </NavLink>
          <NavLink to="/experiments/new">New experiment</NavLink>
          <NavLink to="/compare">Compare</NavLink>
          <NavLink to="/models">Models</NavLink>
          <NavLink to="/testbeds">Testbeds</NavLink>
          {/* The documentation site, served by the API beside the UI (not a client route). */}
          <a href="/guide/" target="_blank" rel="noopener">
            Guide
          </a>
        </nav>
        {getToken() && (
          <button
            type="button"
            className="link logout"
            onClick={() => {
              clearToken();
              window.location.assign(LOGIN_PATH);
            }}
          >
            Log out
          </button>
        )}
      </header>
      <main className="content">
        <Outlet />
      </main>
      <Toasts />
    </div>
  );
}
