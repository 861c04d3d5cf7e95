import { HttpClient } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import type { SetupRequest, SetupResponse, SetupStatusResponse } from '@sc/contracts';
import { Observable } from 'rxjs';

@Injectable({ providedIn: 'root' })
export class SetupApi {
  private readonly http = inject(HttpClient);

  status(): Observable<SetupStatusResponse> {
    return this.http.get<SetupStatusResponse>('/api/v1/setup');
  }

  run(request: SetupRequest): Observable<SetupResponse> {
    return this.http.post<SetupResponse>('/api/v1/setup', request);
  }
}
