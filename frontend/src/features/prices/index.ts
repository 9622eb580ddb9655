// The VM prices page: stored prices with their date and source, and setting one by hand.
export { PricesPage } from "./components/PricesPage";
