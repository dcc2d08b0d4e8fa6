import type { Config } from "tailwindcss";

export default {
  content: ["./app/**/*.{ts,tsx}"],
  darkMode: "class",
  theme: {
    extend: {
      colors: {
        brand: { DEFAULT: "#15803d", fg: "#ffffff" },
      },
      width: { sidebar: "16rem", "sidebar-mobile": "18rem", "sidebar-icon": "3rem" },
      maxHeight: { table: "600px" },
    },
  },
  plugins: [],
} satisfies Config;
