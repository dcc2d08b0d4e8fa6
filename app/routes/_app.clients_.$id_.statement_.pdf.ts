import { clientStatementPdf } from "~/presenters/statement-pdf.server";
import { statementPdfLoader } from "~/presenters/statement-pdf-loader.server";

// A client's statement of account as a PDF attachment (docs/decisions/0970): a bad period is a 400.
export const loader = statementPdfLoader("client.statement", "Client not found", clientStatementPdf);
