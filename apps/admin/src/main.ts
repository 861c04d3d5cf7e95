import { bootstrapApplication } from '@angular/platform-browser';
import { AppComponent } from './app/app.component';
import { appConfig } from './app/app.config';
import { startEarlyDiagramLoad } from './app/features/diagram-canvas/early-diagram-load';

// Before Angular starts: on a diagram page, the diagram and then (unless it is a sequence diagram) the server's layout
// of it are requested while the app boots; on
// the other diagram pages (flows, jobs: no server layout) ELK compiles in the layout workers meanwhile. With the
// server's layout on its way the first drawing needs no ELK, so the workers warm up only once it is drawn
// (LayoutEngine.drawn): compiling ELK during the load took a core from the page (see the module).
startEarlyDiagramLoad(location.pathname, location.search);

bootstrapApplication(AppComponent, appConfig).catch((error: unknown) => console.error(error));
