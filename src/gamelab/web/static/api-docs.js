// Starts Swagger UI on /api/docs (a classic script: the bundle defines SwaggerUIBundle).
// A file, not an inline script, so the server's content security policy can refuse inline code.
window.addEventListener("load", () => {
  window.ui = SwaggerUIBundle({
    url: "/api/openapi.json",
    dom_id: "#swagger-ui",
    layout: "BaseLayout",
    deepLinking: true,
    showExtensions: true,
    showCommonExtensions: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
  });
});
