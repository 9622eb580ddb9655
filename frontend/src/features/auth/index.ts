// The public entrance of the auth feature: what other features and the routes may use.
export { LoginPage } from "./components/LoginPage";
