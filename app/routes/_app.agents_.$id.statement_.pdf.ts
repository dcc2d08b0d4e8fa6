import { agentStatementPdf } from "~/presenters/statement-pdf.server";
import { statementPdfLoader } from "~/presenters/statement-pdf-loader.server";

// An agent's statement as a PDF attachment (docs/decisions/0980): a bad period is a 400.
export const loader = statementPdfLoader("agent.settle", "Agent not found", agentStatementPdf);
